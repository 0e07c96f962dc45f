// Signature test vectors of the QQ official-bot platform (docs/qq-protocol.md#qq-test-vectors), byte for byte. Bodies are checked
// against the spec's lengths and SHA-256 sums in the tests, so a stray edit here shows up.

const D2_BODY = '{\n  "op": 0,\n  "d": {},\n  "t": "GATEWAY_EVENT_NAME"\n}';

const D3_BODY =
  '{"id":"ROBOT1.0_veoihSEXDc8Q.g-6eLpNIa11bH8MisOjn-m-LKxCPntMk6exUXgcWCGpVO7L2QKTNZzjZzFFDSbiOFcqAPWyVA!!","content":"哦一下","timestamp":"2024-10-15T16:33:15+08:00","author":{"id":"675860273","user_openid":"675860273"}}';

const V2_BODY =
  '{"op":0,"id":"GROUP_AT_MESSAGE_CREATE:testevent0001","d":{"id":"ROBOT1.0_testmsg0001","content":" 你好 /help","timestamp":"2025-01-01T08:00:01+08:00","author":{"id":"E4F4AEA33253A2797FB897C50B81D7ED","member_openid":"E4F4AEA33253A2797FB897C50B81D7ED","union_openid":"E4F4AEA33253A2797FB897C50B81D7ED"},"group_id":"C9F778FE6ADF9D1D1DBE395BF744A33A","group_openid":"C9F778FE6ADF9D1D1DBE395BF744A33A","message_scene":{"source":"default"},"message_type":0},"t":"GROUP_AT_MESSAGE_CREATE"}';

const V3_BODY =
  '{"op":0,"id":"C2C_MESSAGE_CREATE:testevent0002","d":{"id":"ROBOT1.0_testmsg0002","content":"ping","timestamp":"2025-01-01T08:01:40+08:00","author":{"id":"A1B2C3D4E5F60718293A4B5C6D7E8F90","user_openid":"A1B2C3D4E5F60718293A4B5C6D7E8F90","union_openid":"A1B2C3D4E5F60718293A4B5C6D7E8F90"},"message_scene":{"source":"default","ext":["msg_idx=REFIDX_test=="]},"message_type":0},"t":"C2C_MESSAGE_CREATE"}';

export const QQ_VECTORS = {
  D1: {
    secret: "DG5g3B4j9X2KOErG",
    publicKey: "8b28ded5630f9051c205dd04c6ec56ad0b08b8812b2fe30ee9aece0ab41926f3",
    body: '{"d":{"plain_token":"Arq0D5A61EgUu4OxUvOp","event_ts":"1725442341"},"op":13}',
    eventTs: "1725442341",
    plainToken: "Arq0D5A61EgUu4OxUvOp",
    signature:
      "87befc99c42c651b3aac0278e71ada338433ae26fcb24307bdc5ad38c1adc2d01bcfcadc0842edac85e85205028a1132afe09280305f13aa6909ffc2d652c706",
  },
  D2: {
    secret: "naOC0ocQE3shWLAfffVLB1rhYPG7",
    publicKey: "d7c362fe78aef81ff23287b493628b5db02a3c4fe30b215e4d19609b5d76673a",
    timestamp: "1725442341",
    body: D2_BODY,
    bodySha256: "70df4ef67efb9347a1f5a61345d92563f545d0b6eca38f16b0a737834b7ec1e6",
    signature:
      "865ad13a61752ca65e26bde6676459cd36cf1be609375b37bd62af366e1dc25a8dc789ba7f14e017ada3d554c671a911bfdf075ba54835b23391d509579ed002",
  },
  D3: {
    secret: "123456abcdef",
    publicKey: "1c3039fbc8134a9df2a09f47cf4bf9303440988cec3b22056b62470b85fa80a7",
    timestamp: "1728981195",
    body: D3_BODY,
    bodySha256: "012bf213f9fdf666d83cf964e9ab0de4a190f3bec52c5a022a91940bd24b34de",
    signature:
      "e949b5b94ef4103df903fb031d1d16e358db3db83e79e117edd404c8508be3ce8a76d7bad1bed353194c126a1a5915b4ad8b5288c1191cc53a12acffccd82004",
  },
  V1: {
    secret: "kV8sZ2pQ7xR4mN1b",
    publicKey: "d3c4cedf4ecd74d417e1deaca986c076c026a8cdd07a54dd78e393026cfd461c",
    body: '{"op":13,"d":{"plain_token":"X7cT2qLm9PzR4vNw8KdA","event_ts":"1735689600"}}',
    eventTs: "1735689600",
    plainToken: "X7cT2qLm9PzR4vNw8KdA",
    signature:
      "1ba32387b1373ea6df233280a5d10e81b3c86de980d7d7a23693805203b93a15d450b4f2474d0382a8711e2325591688d630fa319818f5c5db55325648563605",
  },
  V2: {
    secret: "kV8sZ2pQ7xR4mN1b",
    timestamp: "1735689601",
    body: V2_BODY,
    bodyLength: 485,
    bodySha256: "a94bfbdcbe6ac9726ce6d5333a2ef8a3b3404776242e4148c83eaf2e1d73c811",
    signature:
      "6fc3bcd768cb174b1050e541db7e3232cc7357a35d3fc4c7c2b865bf9d65149c18053164053f590a9f8d4e5d837c559ef97f52a5b812631cbec54016a18a060f",
  },
  V3: {
    secret: "0123456789abcdefABCDEFghijklmnop",
    publicKey: "3c92bfd897bdb014798d9501ca3ef158c21b65807cc7917cb303e475f304dc2a",
    timestamp: "1735689700",
    body: V3_BODY,
    bodyLength: 400,
    bodySha256: "b0a58314fee39ae037a7bd9119a5a58b9caa4f0dcc64e3ae2a7a5140d083339f",
    signature:
      "c1996a162fc3820f87325b6d033456a9b1f25cfc30bfe32926d2502c1c28def58b6784425b0ad60a65919536cba9740437bd5a7fb5d12a81def781992afea507",
  },
  V4: {
    secret: "abcde",
    publicKey: "2388fb3c30bcb94e7646430d83ef7f5324744b65b8e0f63d4f4129fd99a5746a",
    eventTs: "1735689800",
    plainToken: "shortSecretToken01",
    signature:
      "c11f657f7d9eb02db7d12990aae09e18a6bf5fd15ca850cfa461ca28b6bdc7f89674521ccffc90cda1a06b4f1472ace457897567755dfb924fdddcec5f9c8f07",
  },
} as const;

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
