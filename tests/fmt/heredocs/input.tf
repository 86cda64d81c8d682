a {
b = <<EOT
  x ${ y }
    z
EOT
c = <<-EOT
    indented
  EOT
d = [<<EOT
foo
EOT
, 1]
g = f(<<EOT
y
EOT
)
h=[
<<EOT
   z
EOT
]
}
