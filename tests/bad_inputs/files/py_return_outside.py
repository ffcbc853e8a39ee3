return 1
break
