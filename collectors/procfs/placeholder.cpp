namespace apcgate::collectors {}
