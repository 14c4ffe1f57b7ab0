STEPS: dict = {}
