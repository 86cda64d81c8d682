zones = ["a", "b"]
