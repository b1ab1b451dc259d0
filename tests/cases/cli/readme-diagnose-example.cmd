cd ../../examples/diagnose && "$1" diagnose job.json
