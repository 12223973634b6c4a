print("blueproof")
