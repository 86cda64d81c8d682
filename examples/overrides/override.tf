# Merged into the blocks of the primary files, block by block.
resource "aws_instance" "web" {
  instance_type = "t3.large"

  # Replaces every ebs_block_device of the base block: nested blocks are not merged.
  ebs_block_device {
    device_name = "/dev/sdc"
  }

  # OpenTofu refuses to override depends_on.
  depends_on = [aws_security_group.web]
}
