package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;

/**
 * {@link org.ssbjca.backend.BrokerSession#attempt} on PostgreSQL, where a failed statement aborts the whole
 * transaction: verbs the database refuses (a trigger refuses the message) are undone to the savepoint, dialog
 * included, and the transaction goes on and commits what it did before and after them; a BEGIN DIALOG held back and
 * refused with its first SEND no longer stops the commit. Verbs that succeed cost two round trips more.
 */
class AttemptSessionTest {

    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REFUSED = "refused".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest(name = "deferring writes: {0}")
    @ValueSource(booleans = {false, true})
    void refusedVerbsAreUndoneAndTheTransactionCommits(boolean deferring) throws Exception {
        try (CountedSession f = CountedSession.declared("attempt_refused_" + deferring)) {
            knowTheDeclaredObjects(f);
            refuseTheBody(f);
            if (deferring) {
                f.s.deferWrites();
            }
            Conversation before = dialog(f, BODY);
            Conversation[] refused = new Conversation[1];
            BrokerException failed = f.s.attempt(() -> {
                refused[0] = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
                f.s.send(refused[0].handle(), "M", REFUSED);
            }, () -> {
                throw new AssertionError("a savepoint undoes them: no cleanup");
            });
            Conversation after = dialog(f, BODY);
            f.commit();

            assertNotNull(failed);
            assertTrue(failed.getMessage().contains("refused by the test"), failed.getMessage());
            assertEquals(3, count(f, "SELECT COUNT(*) FROM ssb.message WHERE queue_name = 'QT'"),
                    "the first dialog's message, then the two of this transaction");
            for (Conversation sent : new Conversation[] {before, after}) {
                assertEquals(2, count(f, "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_id = '"
                        + sent.conversationId() + "'"));
            }
            assertEquals(0, count(f, "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_id = '"
                    + refused[0].conversationId() + "'"), "nothing of the refused dialog");
        }
    }

    /**
     * In an XA branch as pgjdbc 42.7.13 and later run one (auto-commit on, the branch's BEGIN alone), the session its
     * owner tells of the branch takes the savepoint all the same: refused verbs are undone, the branch commits.
     */
    @Test
    void inABranchWithAutoCommitOnRefusedVerbsAreUndoneAndTheBranchCommits() throws Exception {
        try (CountedSession f = CountedSession.declared("attempt_refused_branch")) {
            knowTheDeclaredObjects(f);
            refuseTheBody(f);
            f.s.deferWrites();
            f.beginBranchWithAutoCommitOn();
            BrokerException failed = f.s.attempt(() -> dialog(f, REFUSED), () -> {
                throw new AssertionError("a savepoint undoes them: no cleanup");
            });
            Conversation after = dialog(f, BODY);
            f.commitBranch();

            assertNotNull(failed);
            assertEquals(2, count(f, "SELECT COUNT(*) FROM ssb.conversation_endpoint WHERE conversation_id = '"
                    + after.conversationId() + "'"), "the branch went on after the refused verbs, and committed");
        }
    }

    @Test
    void verbsThatSucceedCostTwoRoundTripsMore() throws Exception {
        try (CountedSession f = CountedSession.declared("attempt_round_trips")) {
            f.s.deferWrites();
            for (int i = 0; i < 6; i++) { // pgjdbc prepares a statement on the server from its fifth execution
                dialog(f, BODY);
                assertNull(f.s.attempt(() -> dialog(f, BODY), () -> { }));
                f.commit();
            }
            long plain = CountingSocketFactory.roundTrips();
            dialog(f, BODY);
            f.commit();
            plain = CountingSocketFactory.roundTrips() - plain;
            long attempted = CountingSocketFactory.roundTrips();
            assertNull(f.s.attempt(() -> dialog(f, BODY), () -> { }));
            f.commit();
            attempted = CountingSocketFactory.roundTrips() - attempted;
            assertEquals(plain + 2, attempted, "SAVEPOINT and RELEASE SAVEPOINT; " + plain + " without");
        }
    }

    /** A trigger that refuses every message whose body is {@link #REFUSED}. */
    private static void refuseTheBody(CountedSession f) throws Exception {
        f.admin("CREATE FUNCTION refused_by_the_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + " RAISE EXCEPTION 'refused by the test'; END $$;"
                + " CREATE TRIGGER refused_by_the_test BEFORE INSERT ON ssb.message FOR EACH ROW"
                + " WHEN (NEW.message_body = '\\x" + hex(REFUSED) + "'::bytea)"
                + " EXECUTE FUNCTION refused_by_the_test()");
    }

    private static Conversation dialog(CountedSession f, byte[] body) {
        Conversation c = f.s.beginDialog("I", "T", "C", DialogOptions.defaults());
        f.s.send(c.handle(), "M", body);
        return c;
    }

    /** BEGIN DIALOG once, written when called: the broker remembers what its checks found, and holds the next. */
    private static void knowTheDeclaredObjects(CountedSession f) throws Exception {
        dialog(f, BODY);
        f.commit();
    }

    private static long count(CountedSession f, String sql) throws Exception {
        try (java.sql.Connection other = new org.ssbjca.backend.ConnectionSource(f.broker.source().config()).open();
                PreparedStatement ps = other.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            b.append(String.format("%02x", x));
        }
        return b.toString();
    }
}
