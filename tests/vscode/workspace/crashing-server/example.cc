// Opened with a lintgv.path whose server dies at start (a fixture of the VS Code test).
GlobalVar gv("main");
