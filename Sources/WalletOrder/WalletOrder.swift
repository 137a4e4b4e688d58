// The WalletOrder stage: order.json model, bundle writing, validation.
