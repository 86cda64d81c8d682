region         = "eu-west-1"
instance_count = 3
tags = {
  Name        = "web"
  Environment = "prod"
}
subnets = ["a", "b"]
