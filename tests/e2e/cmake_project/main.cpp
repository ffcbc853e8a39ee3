// The host program of the sample: no kernel, so poolcheck has nothing to say about it.
int main() { return 0; }
