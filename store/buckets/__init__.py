"""The bucket pattern, shared by trades and chat pages: an owner's items appended to capped
bucket documents (`buckets`), a bucket's shape (`bucket_layout`), and its reads
(`bucket_reads`). No collection of its own: each user declares its `BucketLayout`."""
