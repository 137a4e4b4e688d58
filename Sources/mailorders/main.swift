// The command-line interface.
print("mailorders")
