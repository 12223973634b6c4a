// BlueproofTransport: see the files of this folder.
