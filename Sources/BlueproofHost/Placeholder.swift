// BlueproofHost: see the files of this folder.
