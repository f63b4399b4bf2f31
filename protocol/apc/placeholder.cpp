namespace apcgate::apc {}
