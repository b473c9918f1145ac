package org.ssbjca.backend.portable;

import java.net.Socket;
import org.ssbjca.backend.DatabaseConfig;

/** pgjdbc's {@code socketFactory}: counts, per thread, the sockets made, one per PostgreSQL session opened. */
public final class SessionCountingSocketFactory extends UnconnectedSocketFactory {

    private static final ThreadLocal<long[]> OPENED = ThreadLocal.withInitial(() -> new long[1]);

    /** @return the sessions this thread opened through this factory so far */
    public static long opened() {
        return OPENED.get()[0];
    }

    /**
     * @param database a PostgreSQL database
     * @return the same database, the sessions opened to it counted
     */
    public static DatabaseConfig counted(DatabaseConfig database) {
        return through(database, SessionCountingSocketFactory.class, "");
    }

    @Override
    public Socket createSocket() {
        OPENED.get()[0]++;
        return new Socket();
    }
}
