mod sum;
