terraform {
  required_providers {
    time = {
      source  = "hashicorp/time"
      version = "0.14.2"
    }
  }
}

resource "time_rotating" "r" {
  rotation_days = 30
}
