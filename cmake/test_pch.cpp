// The source of subscale_test_pch (SubscaleTarget.cmake): the precompiled header needs one.
