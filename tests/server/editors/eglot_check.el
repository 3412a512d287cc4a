;;; eglot_check.el --- Emacs + eglot drive `lintgv server` on one file  -*- lexical-binding: t -*-
;; Waits for lintgv's diagnostics through flymake, asks for code actions on the first
;; one, applies the quick fix (not "Ignore ..."), saves the buffer and writes a report.
;; Usage: emacs --batch -l eglot_check.el -- FILE
;; Env: LINTGV_SNIPPET (README's set-up), LINTGV_REPORT (report file); `lintgv` on PATH.
;; The set-up README.md shows, as a user would put it in init.el.
(load (or (getenv "LINTGV_SNIPPET") (error "LINTGV_SNIPPET names the README snippet")) nil t)
(require 'eglot)
(require 'flymake)
(require 'cl-lib)

(defvar lintgv-report (or (getenv "LINTGV_REPORT") "report.txt"))
(defvar lintgv-file (car (last command-line-args-left)))
(setq command-line-args-left nil)
(defvar lintgv-lines nil)
(defun lintgv-say (fmt &rest args) (push (apply #'format fmt args) lintgv-lines))
(defun lintgv-finish (code)
  (with-temp-file lintgv-report
    (insert (mapconcat #'identity (reverse lintgv-lines) "\n") "\n"))
  (kill-emacs code))

(setq eglot-sync-connect t)
(setq eglot-autoshutdown nil)

(defun lintgv-wait-for-diagnostics ()
  (let ((deadline (+ (float-time) 60)))
    (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      ;; flymake starts its backends from timers; make sure it has run.
      (unless (flymake-running-backends) (flymake-start))))
  (unless (flymake-diagnostics) (error "no diagnostics arrived")))

(condition-case err
    (progn
      (find-file lintgv-file)
      (if (string-suffix-p ".py" lintgv-file) (python-mode) (c++-mode))
      (apply #'eglot (eglot--guess-contact))
      (lintgv-wait-for-diagnostics)
      (dolist (d (flymake-diagnostics))
        (lintgv-say "DIAG line=%d %s" (line-number-at-pos (flymake-diagnostic-beg d))
                    (flymake-diagnostic-text d)))
      (let* ((d (car (flymake-diagnostics)))
             (actions (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
             (chosen (cl-find-if (lambda (a)
                                   (and (equal (plist-get a :kind) "quickfix")
                                        (not (string-prefix-p "Ignore" (plist-get a :title)))))
                                 actions)))
        (dolist (a actions)
          (lintgv-say "ACTION kind=%s title=%s" (plist-get a :kind) (plist-get a :title)))
        (unless (and chosen (plist-get chosen :edit)) (error "no quick fix with an edit"))
        (eglot--apply-workspace-edit (plist-get chosen :edit))
        (save-buffer)
        (lintgv-say "APPLIED %s" (plist-get chosen :title)))
      (eglot-shutdown (eglot-current-server))
      (lintgv-say "RESULT PASS")
      (lintgv-finish 0))
  (error (lintgv-say "RESULT ERROR %S" err) (lintgv-finish 1)))
