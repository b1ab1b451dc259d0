;;; eglot.el --- Emacs eglot against `sm-preflight lsp', in batch mode
;;
;;   SMP_CLI=build/sm-preflight SMP_SPEC=/tmp/ws/spec.yaml \
;;     emacs --batch -Q -l tests/lsp/eglot.el
;;
;; Opens a broken spec (its folder a git repository: eglot's project),
;; waits for the diagnostics with rule ids, asks for the code actions on
;; the GPU_NUM_DEVICES line, applies the preferred fix, checks the buffer
;; and hovers on the instance type.  Exits 0, or 1 when a check failed.

;; Debian's elpa-* packages (eglot and the newer project, xref, seq it
;; needs), which -Q does not load
(dolist (d (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
  (add-to-list 'load-path d))
(require 'eglot)
(require 'flymake)

(defvar smp-failed 0)
(defun smp-check (cond what)
  (princ (format "%s %s\n" (if cond "ok  " "FAIL") what))
  (unless cond (setq smp-failed (1+ smp-failed))))

(define-derived-mode smp-yaml-mode prog-mode "smp-yaml")
(add-to-list 'eglot-server-programs
             `(smp-yaml-mode . (,(getenv "SMP_CLI") "lsp")))
(setq eglot-sync-connect t
      eglot-autoshutdown t
      flymake-no-changes-timeout nil) ; eglot then keeps the diagnostics

(defun smp-wait (pred secs)
  (let ((end (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.05))
    (funcall pred)))

(defun smp-diags ()
  (mapcar (lambda (d) (flymake-diagnostic-text d))
          (or eglot--diagnostics (flymake-diagnostics))))

(defun smp-has (rule)
  (cl-some (lambda (text) (string-match-p (regexp-quote (format "[%s]" rule))
                                          text))
           (smp-diags)))

(find-file (getenv "SMP_SPEC"))
(smp-yaml-mode)
(apply #'eglot (eglot--guess-contact))
(smp-check (eglot-current-server) "eglot started the server")
(smp-check (smp-wait (lambda () (smp-has "gpu-num-devices-mismatch")) 20)
           (format "diagnostics with rule ids: %S" (smp-diags)))
(smp-check (smp-has "compiler-debug") "compiler-debug too")

(goto-char (point-min))
(forward-line 16)
(search-forward "\"8\"")
(let* ((actions (eglot-code-actions (line-beginning-position)
                                    (line-end-position)))
       (fix (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions)))
  (smp-check fix (format "a preferred quickfix among %d actions"
                         (length actions)))
  (when fix
    (eglot--apply-workspace-edit (plist-get fix :edit))
    (smp-check (equal (buffer-substring (line-beginning-position)
                                        (line-end-position))
                      "  GPU_NUM_DEVICES: \"4\"")
               (format "the buffer after the fix: %S"
                       (buffer-substring (line-beginning-position)
                                         (line-end-position))))
    ;; what eglot's idle timer does after typing (no idle time in batch)
    (eglot--signal-textDocument/didChange)
    (setq eglot--diagnostics nil)
    (smp-check (smp-wait (lambda ()
                           (and (smp-diags)
                                (not (smp-has "gpu-num-devices-mismatch"))))
                         20)
               "the finding is gone after the edit")))

(goto-char (point-min))
(forward-line 5)
(search-forward "ml.p3")
(let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                              (eglot--TextDocumentPositionParams))))
  (smp-check (string-match-p "4 x V100"
                             (plist-get (plist-get hover :contents) :value))
             "hover on the instance type"))

(eglot-shutdown (eglot-current-server))
(kill-emacs (if (= smp-failed 0) 0 1))
