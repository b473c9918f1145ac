package org.ssbjca.api;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;

/** How {@link BrokerMessage} reads a body: as text (by its byte order mark), as XML (no DTD, no external entity). */
final class Bodies {

    private Bodies() {
    }

    /** Returns the body decoded: UTF-16 after a UTF-16 byte order mark, else UTF-8 (a UTF-8 mark dropped). */
    static String text(byte[] body) {
        if (body.length >= 2 && (body[0] & 0xFF) == 0xFF && (body[1] & 0xFF) == 0xFE) {
            return new String(body, 2, body.length - 2, StandardCharsets.UTF_16LE);
        }
        if (body.length >= 2 && (body[0] & 0xFF) == 0xFE && (body[1] & 0xFF) == 0xFF) {
            return new String(body, 2, body.length - 2, StandardCharsets.UTF_16BE);
        }
        if (body.length >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB && (body[2] & 0xFF) == 0xBF) {
            return new String(body, 3, body.length - 3, StandardCharsets.UTF_8);
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    /**
     * @return the body parsed, namespace aware, DTDs and external entities refused
     * @throws SAXException if it is not well-formed XML
     * @throws IOException if it cannot be read
     */
    static Document xml(byte[] body) throws SAXException, IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder builder = f.newDocumentBuilder();
            builder.setErrorHandler(null);
            return builder.parse(new ByteArrayInputStream(body));
        } catch (ParserConfigurationException e) {
            throw new SAXException("no usable XML parser", e);
        }
    }
}
