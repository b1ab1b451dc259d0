rules syntax
