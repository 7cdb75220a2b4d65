-- expect: module names are dotted paths inside the project
require("/etc/passwd")
