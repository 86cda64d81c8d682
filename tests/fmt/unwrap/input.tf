a = "${x}"
b = "${var.instance_type}-2"
c = "${x}${y}"
d = "${ x ? y : z }"
e = "${
  x +
  y
}"
f = "${(a +
b)}"
g = "${(a) +
b}"
h = "${~ x ~}"
i = ["${x}"]
j = { k = "${x}" }
k = "${x}" # comment
l = /* before */ "${x}" /* after */
n = "${
  x
}"
o = "${x}"[0]
p = <<EOT
${x}
EOT
q {
  r = "${x}"
  s {
    t = "${x}"
  }
}
