diagnose suggest/bert-api.json
