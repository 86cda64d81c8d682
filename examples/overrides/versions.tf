# Read by Terraform only: versions.tofu hides this whole file from OpenTofu.
terraform {
  required_version = ">= 1.5"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}
