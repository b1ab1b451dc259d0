diagnose --format json diagnose/untrusted-text.json
