a = 1
if a:
	b = 2c = 3
