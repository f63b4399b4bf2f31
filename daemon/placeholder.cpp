namespace apcgate::daemon {}
