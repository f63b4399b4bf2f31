namespace apcgate::gator {}
