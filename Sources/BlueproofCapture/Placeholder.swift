// BlueproofCapture: see the files of this folder.
