package org.ssbjca.backend.portable;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * pgjdbc's {@code socketFactory}: sockets that count, per thread, the round trips made on them: each first read after
 * a write (the driver waiting for the server's answer to what it sent); and the writes (each a flush of the driver's
 * buffer: a packet the server reads on its own).
 */
public final class CountingSocketFactory extends UnconnectedSocketFactory {

    private static final ThreadLocal<long[]> ROUND_TRIPS = ThreadLocal.withInitial(() -> new long[1]);
    private static final ThreadLocal<long[]> WRITES = ThreadLocal.withInitial(() -> new long[1]);

    /** @return the round trips this thread made on sockets of this factory so far */
    public static long roundTrips() {
        return ROUND_TRIPS.get()[0];
    }

    /** @return the writes this thread made on sockets of this factory so far */
    public static long writes() {
        return WRITES.get()[0];
    }

    /**
     * @param database a PostgreSQL database
     * @return the same database, the round trips of its connections counted
     */
    public static org.ssbjca.backend.DatabaseConfig counted(org.ssbjca.backend.DatabaseConfig database) {
        return through(database, CountingSocketFactory.class, "");
    }

    @Override
    public Socket createSocket() {
        return new CountingSocket();
    }

    /** A socket whose streams note whether the last thing done was a write. */
    private static final class CountingSocket extends Socket {
        private volatile boolean wrote;
        private InputStream in;
        private OutputStream out;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        waiting();
                        return super.read();
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        waiting();
                        return super.read(b, off, len);
                    }
                };
            }
            return in;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (out == null) {
                out = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(int b) throws IOException {
                        wrote = true;
                        WRITES.get()[0]++;
                        super.out.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        wrote = true;
                        WRITES.get()[0]++;
                        super.out.write(b, off, len);
                    }
                };
            }
            return out;
        }

        private void waiting() {
            if (wrote) {
                wrote = false;
                ROUND_TRIPS.get()[0]++;
            }
        }
    }
}
