return { shopName = "Book Shop" }
