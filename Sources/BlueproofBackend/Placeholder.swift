// BlueproofBackend: see the files of this folder.
