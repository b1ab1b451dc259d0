diagnose diagnose/no-such-file.json
