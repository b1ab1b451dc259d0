diagnose - < diagnose/failed-missing-xla.json
