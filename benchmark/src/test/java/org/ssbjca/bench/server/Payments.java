package org.ssbjca.bench.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The one-database phase's business write, the same for every consumer: a payment row inserted and an account's
 * balance updated, on the connection the consumer passes (the delivery's own, or an XA datasource's).
 */
public final class Payments {

    /** Accounts the payments are spread over (rows of {@code bench_account}, ids 0 to ACCOUNTS - 1). */
    public static final int ACCOUNTS = 100;

    private Payments() {
    }

    /**
     * @param c the connection, in the caller's transaction
     * @param body the message's body; its hash picks the account
     * @throws SQLException if a statement fails, or the account is missing
     */
    public static void apply(Connection c, String body) throws SQLException {
        int account = Math.floorMod(body.hashCode(), ACCOUNTS);
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO bench_payment (account, amount) VALUES (?, 1)");
                PreparedStatement update = c.prepareStatement(
                        "UPDATE bench_account SET balance = balance + 1 WHERE id = ?")) {
            insert.setInt(1, account);
            insert.executeUpdate();
            update.setInt(1, account);
            if (update.executeUpdate() != 1) {
                throw new SQLException("no account " + account);
            }
        }
    }
}
