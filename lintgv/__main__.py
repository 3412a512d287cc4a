from lintgv.cli import main

raise SystemExit(main())
