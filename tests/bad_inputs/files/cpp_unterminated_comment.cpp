// not closed
/* comment never ends
int x;
