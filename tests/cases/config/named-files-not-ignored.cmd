check --color never config/tree/b.draft.yaml config/tree/skipped/c.yaml
