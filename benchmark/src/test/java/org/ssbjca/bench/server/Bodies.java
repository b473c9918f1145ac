package org.ssbjca.bench.server;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Message bodies of the benchmark: the message's number, a semicolon, then 'x' up to the size (ASCII). */
public final class Bodies {

    private Bodies() {
    }

    /**
     * @param id the message's number
     * @param size the body's size in bytes
     * @return the body
     */
    public static byte[] of(int id, int size) {
        byte[] head = (id + ";").getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[Math.max(size, head.length)];
        Arrays.fill(body, (byte) 'x');
        System.arraycopy(head, 0, body, 0, head.length);
        return body;
    }
}
