variable "region" {
  default = "us-east-1"
}

# No base block declares this output: OpenTofu reports the override.
output "web_dns" {
  value = aws_instance.web.public_dns
}
