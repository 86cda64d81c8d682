a {
b = <<EOT
  x
EOT  
c = <<-EOT
    y
  EOT	
d   = 1
}
