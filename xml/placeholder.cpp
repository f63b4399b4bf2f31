namespace apcgate::xml {}
