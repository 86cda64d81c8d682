a = "a${ x + 1 }b"
b = "a%{ if x }y%{ else }z%{ endif }"
c = "%{ for x in y ~}${ x }%{~ endfor }"
d = "${ x }${ y }"
e = <<EOT
  keep   these  blanks ${ but_not  +  these }
%{ if x }yes%{ endif }
EOT
f = "a ${b
} c"
g = "$${not} %%{this}"
