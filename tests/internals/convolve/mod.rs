mod subset;
