package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One PostgreSQL RECEIVE of one message from a whole queue ({@link PortableSql#receiveNext}) run under
 * {@code EXPLAIN (ANALYZE, BUFFERS)}, which runs it: what it took and the buffers its plan touched, a bound on the
 * plan's work rather than on time. The caller commits.
 */
final class ExplainedReceive {

    private static final Pattern BUFFERS = Pattern.compile("Buffers: shared(?: hit=(\\d+))?(?: read=(\\d+))?");
    private static final Pattern ROWS = Pattern.compile("actual time=\\S+ rows=(\\d+) loops");

    /**
     * @param rows the messages it took
     * @param buffers the shared buffers it touched (hit and read)
     */
    record Result(int rows, long buffers) {
    }

    private ExplainedReceive() {
    }

    static Result run(Connection c, String queue) throws Exception {
        String receive = "EXPLAIN (ANALYZE, BUFFERS) " + new PostgresSql().receiveNext(1, true, true);
        long buffers = 0;
        int rows = -1;
        try (PreparedStatement p = c.prepareStatement(receive)) {
            java.sql.Timestamp now = java.sql.Timestamp.from(java.time.Instant.now());
            p.setString(1, queue);
            p.setTimestamp(2, now); // the time holds are compared with (redelivery delay)
            p.setString(3, queue);
            p.setTimestamp(4, now);
            p.setString(5, queue);
            p.setString(6, queue); // took_last's probe for other groups
            try (ResultSet rs = p.executeQuery()) {
                boolean first = true;
                while (rs.next()) {
                    String line = rs.getString(1);
                    Matcher r = ROWS.matcher(line);
                    if (rows < 0 && r.find()) {
                        rows = Integer.parseInt(r.group(1));
                    }
                    Matcher b = BUFFERS.matcher(line);
                    if (first && b.find()) {
                        buffers = number(b.group(1)) + number(b.group(2));
                        first = false;
                    }
                }
            }
        }
        return new Result(rows, buffers);
    }

    private static long number(String group) {
        return group == null ? 0 : Long.parseLong(group);
    }
}
