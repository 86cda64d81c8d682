a=1
bb = 2
x {
  y=<<EOT
keep  
EOT
}
