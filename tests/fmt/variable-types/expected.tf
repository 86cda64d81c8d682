variable "a" {
  type = string
}
variable "b" {
  type = list(string)
}
variable "c" {
  type = map(string)
}
variable "d" {
  type = list(any)
}
variable "e" {
  type = map(any) # comment
}
variable "f" {
  type = set(any)
}
variable "g" { type = string }
variable "h" {
  type = "${list}"
}
variable "i" {
  type = "set"
}
variable "j" {
  type = list(string)
}
variable "k" {
  type    = tuple
  default = x
}
variable "l" {
  nested {
    type = list
  }
}
module "m" {
  type = list
}
