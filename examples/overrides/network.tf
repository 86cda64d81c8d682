locals {
  # Already defined in main.tf: OpenTofu rejects a second definition.
  name = "network"
}

# A second declaration of the same resource: OpenTofu keeps the first one and
# reports this one.
resource "aws_security_group" "web" {
  name = "web-2"
}
