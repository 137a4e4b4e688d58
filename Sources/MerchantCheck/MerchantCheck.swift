// The merchant email checker: findings, fixes, the Wallet preview and the HTML report.
