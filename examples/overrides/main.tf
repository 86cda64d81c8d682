resource "aws_instance" "web" {
  ami           = "ami-0abcdef1234567890"
  instance_type = var.instance_type

  ebs_block_device {
    device_name = "/dev/sdb"
    volume_size = 10
  }

  tags = {
    Name = local.name
  }
}

resource "aws_security_group" "web" {
  name = "${local.name}-web"
}

locals {
  name = "demo"
}

output "web_ip" {
  value = aws_instance.web.public_ip
}
