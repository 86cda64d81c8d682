# Try it: printf 'local.bucket\n' | tofu-lens console examples/console
variable "project" {
  type    = string
  default = "demo"
}

variable "environment" {
  type = string
}

variable "zones" {
  type = list(string)
}

locals {
  bucket     = "${var.project}-${var.environment}-assets"
  zone_count = length(var.zones)
  tags = {
    project = var.project
    zones   = join(",", var.zones)
  }
}

variable "settings_json" {
  type = string
}
