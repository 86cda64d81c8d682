environment = "staging"
